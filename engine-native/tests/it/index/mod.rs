mod batches;
mod embedding_status;
mod scan;
pub(crate) mod semantic;
