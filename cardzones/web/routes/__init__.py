"""The endpoints of the table server, one module for each thing they serve:
tables (:mod:`.tables`), the WebSocket (:mod:`.sockets`), legal acts
(:mod:`.legal`), finishing a game (:mod:`.finish`) and its history
(:mod:`.history`). :mod:`cardzones.web.app` routes to them; the pages and
their static files are :mod:`cardzones.web.pages`.
"""
