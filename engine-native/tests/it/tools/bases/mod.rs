mod kepano;
mod write;
