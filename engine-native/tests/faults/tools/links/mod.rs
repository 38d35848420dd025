mod moves;
mod rewrite;
