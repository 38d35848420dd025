mod batches;
mod embedding_status;
mod scan;
mod secrets;
mod semantic;
