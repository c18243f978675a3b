print("feed-demo")
