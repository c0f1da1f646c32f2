
BaJ
³Ç
ÊžD@FQE