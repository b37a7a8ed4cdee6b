from hearts.cli import main

main()
