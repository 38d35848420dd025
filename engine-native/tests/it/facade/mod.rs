mod envelope;
mod find;
mod listing;
mod parity;
