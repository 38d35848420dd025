mod add_vault;
mod cache_home;
mod cli;
mod companion_env;
mod load;
mod schema;
