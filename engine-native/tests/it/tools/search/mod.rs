mod df_oracle;
mod modes;
mod regex;
mod text;
