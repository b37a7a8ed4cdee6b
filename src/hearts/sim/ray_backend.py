"""The same duplicate tournament on a Ray cluster (``pip install 'hearts[ray]'``).

Each table of each deal or game is a Ray task running
:func:`hearts.sim.tournament.play_table`, the very function the local backend's
workers run; every deal, seating and player seed derives from the tournament
seed, the unit and the table, never from the worker, so the results are
identical to the local backend's for the same seed. Progress is told per table
played (a deal's or game's share of tables), not from inside a table.

Without ``address`` a local Ray instance with ``jobs`` CPUs is started (and shut
down afterwards); with one (``auto`` or ``ray://host:10001``) the tasks go to
that cluster, whose workers must have ``hearts`` installed. Each worker keeps its
``cmd:`` bots for every table it plays (:mod:`hearts.sim.seats`), as a local worker does.
"""

from __future__ import annotations

from types import ModuleType

from hearts.sim.tournament import (
    ProgressFn,
    TableResult,
    TournamentConfig,
    TournamentError,
    default_jobs,
    in_order,
    play_table,
    table_work,
)


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise TournamentError("the ray backend needs Ray: pip install 'hearts[ray]' (or pip install ray)") from None
    return ray


def run_ray(
    config: TournamentConfig,
    jobs: int | None = None,
    progress: ProgressFn | None = None,
    address: str | None = None,
) -> list[TableResult]:
    """Play every table as a Ray task; results in unit order, as :func:`~hearts.sim.tournament.run_local` gives."""
    ray = _import_ray()
    started_here = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        else:
            jobs = default_jobs() if jobs is None else jobs
            if jobs < 1:
                raise TournamentError(f"--jobs must be at least 1, not {jobs}")
            ray.init(num_cpus=jobs, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
        started_here = True
    try:
        task = ray.remote(num_cpus=1)(play_table)
        config_ref = ray.put(config)
        units, work = table_work(config, progress)
        pending = {task.remote(config_ref, unit, table): (unit, table) for unit, table in work}
        results: list[TableResult] = []
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                unit, table = pending.pop(ref)
                try:
                    results.append(ray.get(ref))
                except ray.exceptions.RayTaskError as exc:
                    # A player's fault (or any tournament error) raised in a worker: give it as raised there,
                    # its message whole, not wrapped in the worker's traceback.
                    if isinstance(exc.cause, TournamentError):
                        raise exc.cause from None
                    raise
                units.played(unit, table)
        return in_order(results)
    finally:
        if started_here:
            ray.shutdown()
