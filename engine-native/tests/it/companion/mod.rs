mod confirm;
mod contract;
mod discovery;
mod plugin_data;
mod states;
