mod append;
mod guard;
mod help_vault;
mod patch;
mod preview;
mod properties;
mod read;
