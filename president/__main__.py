import os
import sys

try:
    from .cli.main import main
except KeyboardInterrupt:  # Ctrl-C while Python loads the command line: the same quiet exit
    sys.stderr.write("\ninterrupted\n")
    os._exit(130)

main()
