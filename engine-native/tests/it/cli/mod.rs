mod call;
mod doctor;
mod doctor_embeddings;
mod elicit;
mod index;
mod model;
mod plugin_install;
mod setup;
