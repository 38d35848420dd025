mod elicit;
mod events;
mod idempotency;
mod notes;
mod open;
mod sweep;
