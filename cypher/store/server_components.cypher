// The server's product, version and edition, checked at connect (store/dialect.py).
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions, edition
