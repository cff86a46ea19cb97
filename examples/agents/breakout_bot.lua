-- A bot that wins Breakout (examples/breakout): it keeps the paddle under the ball, aiming to
-- meet the ball a little off the paddle's centre so the ball leaves at an angle that changes
-- from bounce to bounce and reaches every brick.
--
--   ludus sim examples/breakout --agent examples/agents/breakout_bot.lua --ticks 20000
--
-- `decide(info)` runs before every tick with the same reads as the game's scripts
-- (`ludus.find`, `ludus.pos`, `ludus.vel`, ...) and returns that tick's input. It cannot
-- change the game: a command here is a fault.

local paddle

function decide(info)
  paddle = paddle or ludus.find("paddle")[1]
  local ball = ludus.find("ball")[1]
  if not (paddle and ball) then
    return { axis = { move_x = 0 } }
  end
  local px = ludus.pos(paddle)
  local bx, by = ludus.pos(ball)
  local _, vy = ludus.vel(ball)
  -- Where to meet it: off centre by an amount that changes with the tick, so the ball's
  -- angle off the paddle changes and it does not repeat one path forever.
  local offset = ((info.tick // 300) % 5 - 2) * 9
  local target = bx + offset
  if vy < 0 then
    target = bx -- going up: follow it loosely
  end
  local move = (target - px) / 24
  return { axis = { move_x = math.max(-1, math.min(1, move)) } }
end
