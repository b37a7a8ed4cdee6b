"""The bot protocol: JSON lines that let a program in any language play a seat (``docs/bot-protocol.md``)."""

from hearts.bots.protocol import PROTOCOL, VERSION, BotAnswerError, check_move, decide_message, parse_answer

__all__ = ["PROTOCOL", "VERSION", "BotAnswerError", "check_move", "decide_message", "parse_answer"]
