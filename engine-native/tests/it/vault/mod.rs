mod crash;
mod excluded;
mod listing;
mod paths;
mod writes;
