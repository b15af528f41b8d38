"""Raspisnoy for researchers: an OpenSpiel game and a PettingZoo environment.

Both need the optional extra (``pip install raspisnoy[research]``) and are imported on
their own: ``import raspisnoy.research.openspiel_game`` registers the OpenSpiel game
``"raspisnoy"``; ``raspisnoy.research.pettingzoo_env.env(...)`` builds the AEC
environment. ``raspisnoy.research.encoding`` (actions as integers, tensors of a seat's
knowledge) needs only NumPy. See docs/research.md.
"""
