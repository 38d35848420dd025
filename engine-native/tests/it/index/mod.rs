mod batches;
mod embedding_status;
mod lexical;
mod scan;
pub(crate) mod semantic;
