mod props;
