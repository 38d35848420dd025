mod props;
mod vault;
