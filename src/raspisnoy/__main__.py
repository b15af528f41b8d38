"""``python -m raspisnoy`` runs the command line."""

from raspisnoy.cli import main

main()
