mod crash;
mod listing;
mod paths;
mod writes;
