mod elicit;
mod episodes;
mod events;
mod idempotency;
mod notes;
mod open;
mod sweep;
