"""The rule book as the command line shows it: rulesets listed, shown, compared and
documented (``reference``, the page docs/rules-reference.md), their round plans, and game
records checked and scored (``command``). Everything here reads core; nothing plays."""
