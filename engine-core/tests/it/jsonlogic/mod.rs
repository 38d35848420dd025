mod notes;
mod props;
mod suite;
