mod batches;
mod freshness;
mod scan;
mod semantic;
