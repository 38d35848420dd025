mod answers;
