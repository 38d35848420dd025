mod modes;
mod regex;
mod text;
