mod batches;
mod crash;
mod embedding_status;
mod scan;
mod semantic;
