
BmJÑ;mA¯À