mod acl;
mod audit;
mod gates;
mod hitl;
mod idempotency;
mod noninterference;
mod throttle;
mod write_queue;
