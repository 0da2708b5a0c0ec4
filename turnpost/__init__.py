"""The processes turnpost runs, wired from the layers below: the command line, the WSGI
application and which workers they hand their work to (engine <- service <- workers
<- turnpost)."""
