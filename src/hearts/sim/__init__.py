"""Simulation at scale: many hands and games between computer players.

The submodules are imported on their own (``hearts.sim.tournament``,
``hearts.sim.simulate``, ...) so that importing one never pulls in another's
heavy dependencies (matplotlib, Ray).
"""
