mod batches;
mod scan;
mod semantic;
