mod lists;
mod provenance;
mod read;
mod update;
mod validate;
