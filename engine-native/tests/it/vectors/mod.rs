mod parallel;
mod store;
mod top_k;
