"""hearts: the card game Hearts — rules engine, computer players, web and terminal play, simulation."""

__version__ = "0.1.0"
