mod lists;
mod read;
mod update;
mod validate;
