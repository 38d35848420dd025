mod injection;
mod secrets;
