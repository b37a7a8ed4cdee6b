"""Every compiled kernel and constant under one name, for callers that want them all (``k.search_worlds``,
``k.R_PLAYERS``): the modules split by job re-exported, nothing defined here.

* :mod:`hearts.core.arith`: the rules (legal cards, the trick's winner, scoring, the moon), the
  ``R_*`` rules row and the MOON_*/CHOICE_* codes: the same functions the engine runs;
* :mod:`hearts.fast.state`: the state array (``S_*``), dealing, passing, :func:`advance`, :func:`score_hand`;
* :mod:`hearts.fast.policies` and :mod:`hearts.fast.medium`: the rollout policies (POLICY_*);
* :mod:`hearts.fast.playout`: whole hands, batches, games and rollouts;
* :mod:`hearts.fast.search`: the search players' inner loop;
* :mod:`hearts.fast.inference`: how well each sampled world explains the plays seen.

:mod:`hearts.fast.verify` (run by ``tests/test_fast_kernels.py``) replays kernel-played hands
through the engine and checks that the two agree card for card, for every rule option.
"""

from hearts.core.arith import *  # noqa: F403
from hearts.fast.inference import *  # noqa: F403
from hearts.fast.medium import *  # noqa: F403
from hearts.fast.playout import *  # noqa: F403
from hearts.fast.policies import *  # noqa: F403
from hearts.fast.search import *  # noqa: F403
from hearts.fast.state import *  # noqa: F403
