
BbJ
E7B¸CTÄðB