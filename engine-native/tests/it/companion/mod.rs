mod confirm;
mod states;
