mod call;
mod doctor;
mod elicit;
mod plugin_install;
mod setup;
