mod notes;
mod props;
