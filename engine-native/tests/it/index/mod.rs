mod batches;
mod contradictions;
mod crash;
mod embedding_status;
mod lexical;
mod scan;
mod secrets;
pub(crate) mod semantic;
