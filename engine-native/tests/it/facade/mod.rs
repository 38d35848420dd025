mod catalog_vectors;
mod envelope;
mod find;
mod listing;
mod meaning;
mod parity;
