from smriti.cli import main

main()
