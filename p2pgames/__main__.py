from p2pgames.cli import main

raise SystemExit(main())
