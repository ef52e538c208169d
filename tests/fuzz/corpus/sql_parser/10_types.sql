create table "Quoted ""T""" (x tinyint, y smallint null, z real, w text, v date, u timestamp, b bool, c char(3), n numeric);
