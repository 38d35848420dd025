mod cli;
mod load;
mod schema;
