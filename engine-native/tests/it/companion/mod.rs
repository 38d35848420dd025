mod confirm;
mod discovery;
mod plugin_data;
mod states;
