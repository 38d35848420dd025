mod elicit;
mod events;
mod idempotency;
mod maintenance;
mod notes;
mod open;
mod sweep;
