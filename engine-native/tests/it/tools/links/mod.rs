mod acl;
mod counts;
mod moves;
mod resolve;
mod rewrite;
