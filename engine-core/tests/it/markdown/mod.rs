mod adversarial;
mod help_vault;
mod props;
